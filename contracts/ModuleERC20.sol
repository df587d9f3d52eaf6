// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

import "./ERC20Token.sol";

/// @title The ERC-20 the netrc20 module deploys for a native coin.
/// @notice Its deployer (the module address) is its owner, the only account that mints and
/// burns: the module mints when coins convert to the token and burns when the token converts
/// back. The initial supply is zero.
contract ModuleERC20 is ERC20Token {
    address public immutable owner;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20Token(name_, symbol_, decimals_, 0) {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "ModuleERC20: caller is not the owner");
        _;
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function burnCoins(address from, uint256 amount) external onlyOwner {
        _burn(from, amount);
    }
}
