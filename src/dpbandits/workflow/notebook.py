"""Execute the exploration notebook with a run's paths and render it to HTML (rule
explore_notebook), so that the notebook in the repository never goes stale."""

from __future__ import annotations

from pathlib import Path

__all__ = ["execute_notebook"]


def execute_notebook(notebook: str | Path, html: str | Path, parameters: dict[str, str],
                     workdir: str | Path = ".", timeout: int = 1200) -> None:
    """Run ``notebook`` (its cell tagged ``parameters`` replaced by ``parameters``) in ``workdir``
    with nbclient, and write the executed notebook as standalone HTML; a failing cell raises."""
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    from dpbandits.io import atomic_path

    nb = nbformat.read(notebook, as_version=4)
    tagged = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(tagged) != 1:
        raise ValueError(f"{notebook}: expected one cell tagged 'parameters', found {len(tagged)}")
    tagged[0].source = "# Parameters injected by the workflow\n" + "".join(
        f"{key} = {value!r}\n" for key, value in parameters.items())
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(workdir)}}).execute()
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    with atomic_path(html) as tmp:
        Path(tmp).write_text(body, encoding="utf-8")
