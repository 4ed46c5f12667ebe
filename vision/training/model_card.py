"""Write models/MODEL_CARD.md tables from the measured JSON files (so figures are never retyped)."""
from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def real_table(real: dict) -> str:
    rows = ["| value read by | recall (found, right value) | precision (predictions right) | found (any value) | predictions |",
            "|---|---|---|---|---|"]
    names = {"reader": "the reader as shipped (classifier, checked by the pip counter)", "net": "network class",
             "pips": "classical pip count", "auto": "pip count where net score < 0.6"}
    for k, v in real.items():
        rows.append(f"| {names.get(k, k)} | {v['recall']:.3f} | {v['precision']:.3f} | {v['found_any_value']:.3f} "
                    f"| {v['predictions']} |")
    return "\n".join(rows)


def synth_table(s: dict) -> str:
    rows = ["| class | precision | recall | labels |", "|---|---|---|---|"]
    for c, v in s["per_class"].items():
        rows.append(f"| {c} | {v['precision']:.3f} | {v['recall']:.3f} | {v['labels']} |")
    return "\n".join(rows)


def epochs_table(results: Path) -> str:
    """An ultralytics results.csv as a table of epochs."""
    if not results.exists():
        return f"(no {results.name})"
    rows = ["| epoch | cumulative s (since resume) | mAP50 (synthetic val) | mAP50-95 |", "|---|---|---|---|"]
    with open(results) as f:
        for r in csv.DictReader(f):
            r = {k.strip(): v for k, v in r.items()}
            rows.append(f"| {r['epoch']} | {float(r['time']):.0f} | {float(r['metrics/mAP50(B)']):.3f} | "
                        f"{float(r['metrics/mAP50-95(B)']):.3f} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--eval", type=Path, default=ROOT / "models" / "metrics.json")
    ap.add_argument("--bench", type=Path, default=ROOT / "models" / "bench_reader.json")
    ap.add_argument("--results", type=Path, nargs="+",
                    default=[ROOT / "models" / "checkpoints" / "detector_v4_results.csv"])
    a = ap.parse_args()
    m = json.loads(a.eval.read_text())
    key = next(k for k in m if k.startswith("real_"))
    print("### Real photos (" + key + ")\n\n" + real_table(m[key]) + "\n")
    s = m["synthetic"]
    print(f"### Synthetic, the training looks (seed {s['seed']}, {s['images']} images never trained on)\n\n"
          + synth_table(s) + "\n")
    print(f"Dice matched by box (IoU >= 0.5): {s['dice_matched']}; value right: the reader "
          f"{s['value_accuracy_reader']:.3f} (unsure {s['reader_unsure']:.3f}), network "
          f"{s['value_accuracy_net']:.3f}, classical pips {s['value_accuracy_pips']:.3f} "
          f"(undecided {s['pips_undecided']:.3f}); colour right {s['color_accuracy']:.3f}\n")
    q = m["quarx"]
    print("### Quarx counts\n\n| scene | method | images | exact count | unsure | wrong | mean abs error of the totals given |"
          "\n|---|---|---|---|---|---|---|")
    for k, v in q.items():
        for meth in ("net", "auto"):
            r = v[meth]
            mae = "-" if r.get("mean_abs_error") is None else f"{r['mean_abs_error']:.2f}"
            print(f"| {k} | {meth} | {v['images']} | {r['exact']:.3f} | {r.get('unsure', 0):.3f} | "
                  f"{r.get('wrong', 1 - r['exact']):.3f} | {mae} |")
    if a.bench.exists():
        print("\n### Speed\n\n```\n" + a.bench.read_text().strip() + "\n```")
    for results in a.results:
        print(f"\n### Training curve: {results.relative_to(ROOT) if results.is_relative_to(ROOT) else results}\n\n"
              + epochs_table(results))


if __name__ == "__main__":
    main()
