"""Write ``static/sound/turn.wav``: the short "your turn" chime (two soft sine
tones, 0.35 s, 22.05 kHz mono, 16 bit). Run it again to change the sound:

    .venv/bin/python tools/make_turn_sound.py
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22050
TONES = ((880.0, 0.14), (1318.5, 0.21))  # A5 then E6
VOLUME = 0.35
OUT = Path(__file__).resolve().parents[1] / "static" / "sound" / "turn.wav"


def samples() -> list[int]:
    out: list[int] = []
    for freq, seconds in TONES:
        n = int(RATE * seconds)
        for i in range(n):
            attack = min(1.0, i / (RATE * 0.01))  # 10 ms in, then a soft decay
            decay = math.exp(-4.0 * i / n)
            value = math.sin(2 * math.pi * freq * i / RATE) * attack * decay * VOLUME
            out.append(int(value * 32767))
    return out


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(OUT), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", s) for s in samples()))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
