"""Signing in to a PDS: app-password sessions, OAuth grants, and where they are kept."""
