"""Rewrite an exported average of networks from "stack, then ReduceMean" to "add, then divide".

``train_vision_cnn.average`` used to export the mean of its members as
``torch.stack(...).mean(0)``: Unsqueeze each member's output, Concat them on a new first
axis, ReduceMean over it. OpenCV 5 reads that graph right; OpenCV 4.x (4.14 checked) gives
one row for a batch of several crops, so ``CnnRecogniser._index_scores`` failed on UNO's
corner-index network (``vision/models/uno_index.onnx``) for every card. ``average`` now
exports a sum divided by the count, which both read alike; this rewrites a graph exported
the old way without training it again (the same weights, the same probabilities).

Needs onnx (the training venv): ``/tmp/tv/bin/python tools/onnx_mean_as_sum.py MODEL.onnx``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def rewrite(path: Path) -> bool:
    """Rewrite ``path`` in place; False where its output is not a stacked mean."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    out = graph.output[0].name
    nodes = {o: n for n in graph.node for o in n.output}
    mean = nodes.get(out)
    if mean is None or mean.op_type != "ReduceMean":
        return False
    concat = nodes[mean.input[0]]
    unsqueezes = [nodes[i] for i in concat.input]
    if concat.op_type != "Concat" or any(u.op_type != "Unsqueeze" for u in unsqueezes):
        return False
    members = [u.input[0] for u in unsqueezes]
    dropped = {id(n) for n in (mean, concat, *unsqueezes)}
    # the axes constants fed only to the dropped nodes
    dropped |= {id(nodes[u.input[1]]) for u in unsqueezes
                if len(u.input) > 1 and nodes.get(u.input[1]) is not None}
    kept = [n for n in graph.node if id(n) not in dropped]
    total = members[0]
    tail = []
    for k, m in enumerate(members[1:]):
        name = f"/mean_as_sum/add_{k}"
        tail.append(helper.make_node("Add", [total, m], [name]))
        total = name
    count = numpy_helper.from_array(np.array(len(members), np.float32), "/mean_as_sum/count")
    graph.initializer.append(count)
    tail.append(helper.make_node("Div", [total, count.name], [out]))
    del graph.node[:]
    graph.node.extend(kept + tail)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+", type=Path)
    args = ap.parse_args()
    for path in args.models:
        print(f"{path}: {'rewritten' if rewrite(path) else 'no stacked mean, left as it is'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
