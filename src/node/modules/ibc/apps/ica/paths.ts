/** Capability names (ibc-go 24-host keys.go): `ports/{port}` and `capabilities/ports/{port}/channels/{channel}`. */
export function portPath(portId: string): string {
  return `ports/${portId}`;
}

export function channelCapabilityPath(portId: string, channelId: string): string {
  return `capabilities/ports/${portId}/channels/${channelId}`;
}
