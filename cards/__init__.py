"""The built-in cards and rulesets, shipped as package data."""
