"""Labels beside the points of a scatter plot, placed off each other, off the markers
and off the lines drawn (error bars, a front), each on a white box; the legend in a
free corner. Used by :func:`propstab.plots.plot_pareto_front` and
``StabilityGridSearch.plot``."""
import numpy as np

# Offsets (points) tried for a point's label, nearest first: right, left, above, below,
# the diagonals, then the same farther out.
LABEL_OFFSETS = [
    (dx * r, dy * r)
    for r in (1, 2, 3)
    for dx, dy in ((5, -3), (-5, -3), (0, 6), (0, -12), (5, 5), (-5, 5), (5, -11), (-5, -11))
]


def renderer_of(fig):
    """The figure's renderer (None when the backend has none to measure text with)."""
    get = getattr(fig.canvas, "get_renderer", None)
    if get is None:
        get = getattr(fig, "_get_renderer", None)
    try:
        return get() if get is not None else None
    except Exception:  # noqa: BLE001 - without a renderer labels keep the first offset
        return None


def point_boxes(ax, points, radius: float = 3.0):
    """Small display-space boxes around the points (markers a label must not cover)."""
    from matplotlib.transforms import Bbox

    xy = ax.transData.transform(points) if len(points) else np.empty((0, 2))
    return [
        Bbox.from_extents(px - radius, py - radius, px + radius, py + radius)
        for px, py in xy
        if np.isfinite(px) and np.isfinite(py)
    ]


def crosses(box, segments) -> bool:
    """Whether any of the display-space segments (an (n, 2, 2) array) passes through the
    box: each is sampled every pixel."""
    if not len(segments):
        return False
    a, b = segments[:, 0], segments[:, 1]
    steps = int(min(max(np.abs(b - a).max(), 1.0), 4000)) + 1
    t = np.linspace(0.0, 1.0, steps)[None, :, None]
    pts = a[:, None, :] + t * (b - a)[:, None, :]
    inside = (
        (pts[..., 0] >= box.x0)
        & (pts[..., 0] <= box.x1)
        & (pts[..., 1] >= box.y0)
        & (pts[..., 1] <= box.y1)
    )
    return bool(inside.any())


#: A label's backing: a white box, over the lines it could not avoid.
LABEL_BOX = dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none", alpha=0.85)


def place_labels(ax, x, y, texts, points, segments=()):
    """Annotate each point with its label at the first offset whose text box overlaps
    no label placed before it, no marker, no segment (error bars, the front's line, in
    data coordinates) and stays inside the axes; returns the boxes. A label that finds
    no free place takes the nearest offset; its white box keeps the lines off its text.

    Greedy, points in order of increasing score. Boxes are measured in display space
    with the figure's renderer after autoscaling (a later change of the axes' size or
    limits moves the points, not the offsets in points).
    """
    ax.autoscale_view()
    renderer = renderer_of(ax.figure)
    placed = []
    markers = point_boxes(ax, points)
    inside = ax.get_window_extent(renderer) if renderer is not None else None
    lines = np.asarray(segments, dtype=float).reshape(-1, 2, 2)
    lines = lines[np.isfinite(lines).all(axis=(1, 2))]
    if len(lines):
        lines = ax.transData.transform(lines.reshape(-1, 2)).reshape(-1, 2, 2)

    def annotate(i, dx, dy):
        return ax.annotate(
            texts[i],
            (x[i], y[i]),
            textcoords="offset points",
            xytext=(dx, dy),
            fontsize="x-small",
            ha="left" if dx > 0 else "right" if dx < 0 else "center",
            bbox=LABEL_BOX,
            zorder=4,
        )

    chosen = {}
    for i in np.argsort(x, kind="stable"):
        ann = None
        for dx, dy in LABEL_OFFSETS:
            if ann is not None:
                ann.remove()
            ann = annotate(i, dx, dy)
            if renderer is None:
                break
            box = ann.get_window_extent(renderer)
            if (
                not any(box.overlaps(b) for b in placed + markers)
                and not crosses(box, lines)
                and inside.contains(box.x0, box.y0)
                and inside.contains(box.x1, box.y1)
            ):
                break
        else:  # nowhere free: the nearest offset
            ann.remove()
            dx, dy = LABEL_OFFSETS[0]
            ann = annotate(i, dx, dy)
        if renderer is not None:
            placed.append(ann.get_window_extent(renderer))
        ann.remove()
        chosen[i] = (dx, dy)
    for i in range(len(texts)):  # drawn in the points' order (ax.texts follows it)
        annotate(i, *chosen[i])
    return placed
