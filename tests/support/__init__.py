"""Helpers shared by the tests (builders of real data, no mocks)."""
