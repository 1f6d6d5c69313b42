"""Issue 11: the same posts, given in any format a user has, give the same facts.

Real posts end to end: the 2.2 release post as the page of today's WordPress site and as the
Markdown of the JSON Lines corpus; the 21 posts of 2026 as scraped Markdown files and as JSON
Lines. Offsets differ (the page has no link targets); entities and relations may not.
"""

from __future__ import annotations

import pytest

from ptkg.extractors.pipeline import run_extraction
from ptkg.graph import build_graph
from ptkg.readers import read_posts
from ptkg.records import PostFacts


def facts_of(result: PostFacts) -> set[tuple]:
    return {(f.type, f.source.label, f.source.name, f.target.label, f.target.name, f.stability)
            for f in result.facts}


def entities_of(result: PostFacts) -> set[tuple[str, str]]:
    """What the text and the title name; the by-line is left out (the JSON Lines export of
    2024 has no author, the page of today names one)."""
    return {(m.entity.label, m.entity.name) for m in result.mentions
            if m.surface != result.author}


@pytest.fixture(scope="module")
def post_2_2(corpus_dir) -> tuple[PostFacts, PostFacts]:
    [page] = read_posts([corpus_dir / "html" / "pytorch2-2.wordpress.html"])
    [markdown] = [p for p in read_posts([corpus_dir / "pytorch_blog.jsonl"]) if p.url == page.url]
    page_facts, markdown_facts = run_extraction([page, markdown])
    return page_facts, markdown_facts


def test_page_and_markdown_of_the_2_2_post_give_the_same_facts(post_2_2):
    page, markdown = post_2_2
    assert facts_of(page) == facts_of(markdown)
    assert len([f for f in page.facts if f.type == "INTRODUCES"]) == 7


def test_page_and_markdown_of_the_2_2_post_name_the_same_entities(post_2_2):
    page, markdown = post_2_2
    assert entities_of(page) == entities_of(markdown)


def test_a_summary_table_in_raw_html_opens_no_stability_section(post_2_2):
    """The Markdown of 2.2 opens with an HTML table whose column heads are "Beta" and
    "Performance Improvements"; "## Performance Improvements" after "## Beta Features" is not
    Beta for all that."""
    _, markdown = post_2_2
    stability = {f.target.name: f.stability for f in markdown.facts if f.type == "INTRODUCES"}
    assert stability["Inductor Performance Optimizations"] is None
    assert stability["aarch64 Performance Optimizations"] is None
    assert stability["AOTInductor"] == "Beta"


def test_2026_markdown_files_and_json_lines_give_the_same_introduces(corpus_dir):
    """Done means of issue 11: ``ptkg build 2026/markdown`` has the INTRODUCES of ``ptkg build
    2026/pytorch_blog_2026.jsonl``."""
    folder = corpus_dir / "2026"
    scraped = read_posts([folder / "markdown"])
    exported = read_posts([folder / "pytorch_blog_2026.jsonl"])
    graphs = [build_graph(run_extraction(list(posts), model="blank"))
              for posts in (scraped, exported)]

    def introduces(graph):
        return sorted((u, v, d.get("stability")) for u, v, k, d in
                      graph.edges(keys=True, data=True) if k == "INTRODUCES")

    assert introduces(graphs[0]) == introduces(graphs[1])
    assert len(introduces(graphs[0])) >= 10
