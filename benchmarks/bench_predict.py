"""parsescore predict against a local chat-completions server: overhead and concurrency.

The server (tests/predict/chat_server.py) answers every image with a valid PlantUML script
after a fixed delay that stands in for the model's latency. Timed in one run:

- the baseline: a plain loop calling the official openai client once per image (no
  validation, no files), sequentially;
- ``predict_images`` with ``--concurrency 1`` (same work plus validation, raw responses, state
  file after each image): the ratio to the baseline is our overhead;
- ``predict_images`` with ``--concurrency 8``: the ratio to concurrency 1 is what bounded
  concurrency buys when the model's latency dominates.

    .venv/bin/python benchmarks/bench_predict.py [--images 200] [--latency 0.02]
"""

from __future__ import annotations

import argparse
import base64
import sys
import tempfile
import time
from pathlib import Path

import openai

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "predict"))
from chat_server import ChatServer, delay, ok, write_png

from parsescore.predict import PredictOptions, predict_images

SCRIPT = "```plantuml\n@startuml\nA -> B : request\nB --> A : answer\n@enduml\n```"


def baseline(server: ChatServer, images: list[Path]) -> float:
    start = time.perf_counter()
    with openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0) as client:
        for image in images:
            url = "data:image/png;base64," + base64.b64encode(image.read_bytes()).decode()
            client.chat.completions.create(
                model="bench",
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "Generate puml"},
                            {"type": "image_url", "image_url": {"url": url}},
                        ],
                    }
                ],
            )
    return time.perf_counter() - start


def ours(server: ChatServer, folder: Path, out: Path, concurrency: int) -> float:
    options = PredictOptions(model="bench", base_url=server.base_url, concurrency=concurrency)
    start = time.perf_counter()
    summary = predict_images("sequence", folder, out, options)
    seconds = time.perf_counter() - start
    assert summary.done == len(summary.outcomes), summary.failed
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--images", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.02, help="server delay per answer (s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, ChatServer() as server:
        folder = Path(tmp) / "images"
        folder.mkdir()
        images = [write_png(folder / f"d{k:04d}.png", seed=k) for k in range(args.images)]
        server.script("default", delay(args.latency, ok(SCRIPT)))
        base = baseline(server, images)
        one = ours(server, folder, Path(tmp) / "out1", 1)
        eight = ours(server, folder, Path(tmp) / "out8", 8)
    n = args.images
    print(f"{n} images, server latency {args.latency * 1000:.0f} ms per answer")
    print(f"  openai client loop (baseline)   {base:6.2f} s  {n / base:7.1f} images/s")
    print(f"  predict --concurrency 1         {one:6.2f} s  {n / one:7.1f} images/s")
    print(f"  predict --concurrency 8         {eight:6.2f} s  {n / eight:7.1f} images/s")
    print(f"  overhead vs baseline: {one / base:.2f}x; concurrency 8 vs 1: {one / eight:.2f}x")


if __name__ == "__main__":
    from timing import tee_results

    with tee_results("predict"):
        main()
