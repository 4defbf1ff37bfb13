"""Run OmniDocBench v1.5's own end-to-end evaluation on one truth JSON and one prediction folder.

Run it with OmniDocBench's Python (its ``requirements.txt`` plus ``scikit-image==0.21.0``), never
with parsescore's::

    /path/to/omnidocbench-env/bin/python tests/document/run_reference.py \
        OMNIDOCBENCH_DIR TRUTH.json PRED_DIR OUT_DIR

It imports OmniDocBench's modules from ``OMNIDOCBENCH_DIR`` (a checkout of commit
7bd6c2ebdb7676e6fd251b0e695e15e09cf3ab5d), runs ``end2end_eval`` with the settings of its
``configs/end2end.yaml`` (quick_match; Edit_dist for text, formulas and reading order;
TEDS and Edit_dist for tables; CDM_plain, which only writes a file) in ``OUT_DIR`` (its
``./result/`` is created there). One change, documented in tests/document/README.md:
``func_timeout`` is replaced by a direct call, so quick_match never falls back to
``match_gt2pred_simple`` after 30 s (parsescore never times out either).
"""

from __future__ import annotations

import os
import sys
import time


def main(argv: list[str]) -> None:
    reference, truth, pred, out = (os.path.abspath(a) for a in argv)
    sys.path.insert(0, reference)
    os.makedirs(os.path.join(out, "result"), exist_ok=True)
    os.chdir(out)
    import dataset  # noqa: F401  (registers the datasets)
    import dataset.end2end_dataset as end2end
    import metrics  # noqa: F401  (registers the metrics)
    import task  # noqa: F401  (registers the tasks)
    from registry.registry import DATASET_REGISTRY, EVAL_TASK_REGISTRY

    def no_timeout(timeout, function, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        del timeout
        return function(*args, **(kwargs or {}))

    end2end.func_timeout = no_timeout
    cfg = {
        "metrics": {
            "text_block": {"metric": ["Edit_dist"]},
            "display_formula": {"metric": ["Edit_dist", "CDM_plain"]},
            "table": {"metric": ["TEDS", "Edit_dist"]},
            "reading_order": {"metric": ["Edit_dist"]},
        },
        "dataset": {
            "dataset_name": "end2end_dataset",
            "ground_truth": {"data_path": truth},
            "prediction": {"data_path": pred},
            "match_method": "quick_match",
        },
    }
    filters = os.environ.get("OMNIDOCBENCH_FILTER")
    if filters:
        key, value = filters.split("=", 1)
        cfg["dataset"]["filter"] = {key: value}
    start, cpu = time.perf_counter(), time.process_time()
    data = DATASET_REGISTRY.get("end2end_dataset")(cfg)
    save_name = os.path.basename(pred) + "_quick_match"
    EVAL_TASK_REGISTRY.get("end2end_eval")(data, cfg["metrics"], truth, save_name)
    print(f"SECONDS {time.perf_counter() - start:.3f}")
    print(f"CPU_SECONDS {time.process_time() - cpu:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
