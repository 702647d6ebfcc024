#!/usr/bin/env python3
"""The docs stay true: every ```rubric block of docs/guide.md and README.md lints, and no page points nowhere.

usage: check_docs.py RUBRIC_BINARY SOURCE_DIR

- guide snippets: each ```rubric file=NAME block is written to NAME in one temporary folder (so
  later blocks can `use` modules from earlier ones) and `rubric lint NAME -I folder` must pass.
- README: each ```rubric file=NAME block (the first rubric a reader sees) lints the same way.
- references: every relative Markdown link in README.md and docs/*.md names a file that exists
  (and, with #anchor, a heading of that file); no "file.md §N" citation names a section the file
  does not number.
"""
import os
import re
import subprocess
import sys
import tempfile

rubric, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
problems = []


def slug(heading):
    # GitHub's anchors: lower case, punctuation dropped, spaces to hyphens.
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def headings(path):
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"```.*?```", "", f.read(), flags=re.S)
    return [m.group(2) for m in re.finditer(r"^(#+)\s+(.*)$", text, flags=re.M)]


def rubric_blocks(rel):
    with open(os.path.join(src, rel), encoding="utf-8") as f:
        return re.findall(r"^```rubric([^\n]*)\n(.*?)^```", f.read(), flags=re.S | re.M)


def lint_blocks(rel, blocks, tmp):
    files = []
    for i, (info, body) in enumerate(blocks):
        m = re.search(r"file=(\S+)", info)
        if not m:
            problems.append(f"{rel}: rubric block {i + 1} has no file=NAME")
            continue
        path = os.path.join(tmp, m.group(1))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
        files.append(m.group(1))
    for name in files:
        r = subprocess.run([rubric, "lint", name, "-I", tmp, "--no-color"], cwd=tmp,
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            problems.append(f"{rel}: {name} does not lint:\n{r.stderr}{r.stdout}")


def check_readme():
    blocks = rubric_blocks("README.md")
    if not blocks:
        problems.append("README.md: no rubric block")
    with tempfile.TemporaryDirectory() as tmp:
        lint_blocks("README.md", blocks, tmp)
    return len(blocks)


def check_guide():
    blocks = rubric_blocks(os.path.join("docs", "guide.md"))
    if len(blocks) < 8:
        problems.append(f"docs/guide.md: {len(blocks)} rubric blocks, expected the guide's steps")
    with tempfile.TemporaryDirectory() as tmp:
        lint_blocks("docs/guide.md", blocks, tmp)
        # As the guide says: `rubric doc` finds the team's module through -I and RUBRIC_PATH.
        for args, env in ((["-I", tmp], {}), ([], {"RUBRIC_PATH": "/nonexistent:" + tmp})):
            r = subprocess.run([rubric, "doc", "team.serving", *args], cwd="/", capture_output=True, text=True,
                               timeout=60, env={**os.environ, **env})
            if r.returncode != 0 or "close_throughput(cand, base, tol = 5%)" not in r.stdout:
                problems.append(f"rubric doc team.serving {args} {env}: exit {r.returncode}\n{r.stdout}{r.stderr}")
    return len(blocks)


def check_references():
    pages = [os.path.join(src, "README.md")] + sorted(
        os.path.join(src, "docs", p) for p in os.listdir(os.path.join(src, "docs")) if p.endswith(".md"))
    links = 0
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text = f.read()
        prose = re.sub(r"```.*?```", "", text, flags=re.S)
        rel = os.path.relpath(page, src)
        for target in re.findall(r"\]\(([^)\s]+)\)", prose):
            if re.match(r"^[a-z]+:", target):
                continue  # http:, https:, mailto:
            links += 1
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) if file_part else page
            if not os.path.exists(dest):
                problems.append(f"{rel}: link to {target}: no such file")
            elif anchor and dest.endswith(".md") and anchor not in {slug(h) for h in headings(dest)}:
                problems.append(f"{rel}: link to {target}: no such heading")
        for name, section in re.findall(r"([\w./-]+\.md)\s*§\s*(\d+)", prose):
            dest = os.path.normpath(os.path.join(os.path.dirname(page), name))
            if not os.path.exists(dest):
                problems.append(f"{rel}: cites {name} §{section}: no such file in the project")
                continue
            if not any(re.match(rf"{section}[.\s]", h) for h in headings(dest)):
                problems.append(f"{rel}: cites {name} §{section}: {name} has no section {section}")
    return len(pages), links


n_blocks = check_guide()
n_readme = check_readme()
n_pages, n_links = check_references()
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"docs: {n_blocks} guide snippets and {n_readme} README snippet(s) lint; {n_links} links in {n_pages} pages resolve")
