"""What every notebook shares: where the data is, figures that say their titles, percentages.

Imported by the notebooks (they run with this folder as the working directory).
"""

from __future__ import annotations

from pathlib import Path

DATA = Path("../data") if Path("../data").is_dir() else Path("data")


def figure_text(fig: object) -> str:
    """A figure's plain-text form: its size and every title on it, suptitle first.

    The notebook test compares plain-text outputs with the committed ones, so
    a number in a title that moves is caught like a printed one.
    """
    from matplotlib.figure import Figure

    assert isinstance(fig, Figure)
    width, height = fig.get_size_inches() * fig.dpi
    lines = [f"<Figure size {width:.0f}x{height:.0f} with {len(fig.axes)} Axes>"]
    if fig._suptitle is not None and fig._suptitle.get_text():  # no public getter
        lines.append(f"suptitle: {fig._suptitle.get_text()}")
    for i, ax in enumerate(fig.axes):
        for where in ("left", "center", "right"):
            title = ax.get_title(where)
            if title:
                lines.append(f"axes {i + 1} title: {title}")
    return "\n".join(lines)


def show_titles() -> None:
    """Make IPython write :func:`figure_text` as each figure's plain-text form."""
    import matplotlib.pyplot as plt
    from IPython import get_ipython
    from matplotlib.figure import Figure

    ip = get_ipython()
    if ip is None:
        return
    # the inline backend drops every formatter of Figure when it is set up, which
    # happens at the first figure: set it up now, then add ours
    plt.close(plt.figure())
    ip.display_formatter.formatters["text/plain"].for_type(
        Figure, lambda fig, printer, cycle: printer.text(figure_text(fig)))


def pct(share: float, digits: int = 2) -> str:
    """A share as a percentage with ``digits`` significant figures, never rounded to 0 or 100.

    >>> pct(0.0017), pct(0.6374), pct(0.98940), pct(1.0), pct(0.999994), pct(0.0)
    ('0.17%', '64%', '99%', '100%', '99.999%', '0%')
    """
    if share in (0, 1):
        return f"{100 * share:.0f}%"
    for d in range(0, 8):
        text = f"{100 * share:.{d}f}"
        value = float(text)
        # enough decimals: the significant figures shown, and not printed as 0 or 100
        if 0 < value < 100 and len(text.replace(".", "").lstrip("0")) >= digits:
            return f"{text}%"
    return f"{100 * share:.8f}%"
