"""What the local servers (``LocalPds``, ``LocalRushDB``) share: the life cycle around their own
``start`` and ``stop``, and a data directory that is theirs to delete when they made it."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import TracebackType
from typing import Self


class LocalService:
    """A server run as child processes; subclasses set ``data_dir`` and ``_owns_data_dir`` and
    implement ``start`` (returning self) and ``stop`` (keeping the data)."""

    data_dir: Path
    _owns_data_dir: bool

    def start(self) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def restart(self) -> None:
        """Stop and start again on the same ports and data directory."""
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop the server and delete the data directory if this object made it."""
        try:
            self.stop()
        finally:
            if self._owns_data_dir:
                shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
