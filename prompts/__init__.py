"""The prompt templates (*.prompt), shipped as package data so a wheel install has them."""
