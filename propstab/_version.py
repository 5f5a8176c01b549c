"""The package's version: a leaf, so that any module can read it without importing the
package root."""

__version__ = "0.1.0"
