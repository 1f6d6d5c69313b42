"""Readers of the posts users have today: plain Markdown as a scraper saves it, the site's
HTML pages, RSS/Atom feeds with full content; on the real files of ``tests/data/corpus``."""

from __future__ import annotations

import json
import shutil

import pytest

from ptkg.readers import detect_format, parse_markdown, read_posts
from ptkg.readers.html import parse_page
from ptkg.readers.markdown import read_byline
from ptkg.records import SkipReport

JSONL_2026 = "2026/pytorch_blog_2026.jsonl"
PAGE = "html/pytorch2-2.wordpress.html"


@pytest.fixture(scope="module")
def markdown_posts(corpus_dir) -> dict:
    report = SkipReport()
    posts = {p.url: p for p in read_posts([corpus_dir / "2026" / "markdown"], report)}
    assert report.skips == []
    return posts


def test_markdown_folder_gives_every_post_with_title_and_date(markdown_posts, corpus_dir):
    """Issue 11: the 21 scraped posts, with the titles, dates, URLs and texts of the JSON
    Lines export of the same posts."""
    exported = {p.url: p for p in read_posts([corpus_dir / JSONL_2026])}
    assert len(markdown_posts) == 21 and set(markdown_posts) == set(exported)
    for url, post in markdown_posts.items():
        assert (post.title, post.date, post.text) == (exported[url].title, exported[url].date,
                                                      exported[url].text), url


@pytest.mark.parametrize(("slug", "author"), [
    ("pytorch-2-12-release-blog", None),
    ("why-is-pytorch-compile-so-fast-kernel-fusion", "Morrison Turnansky"),
    ("torchspec-speculative-decoding-training-at-scale", "TorchSpec team, Mooncake team"),
    ("rsvp-for-the-2026-pytorch-docathon", "Team PyTorch"),
    ("alibaba-cloud-joins-the-pytorch-foundation-as-a-platinum-member", "PyTorch Foundation"),
    ("using-muon-optimizer-with-deepspeed", "Zhipeng Wang, Guokai Ma, Peng Du and Chi McIsaac, "
                                            "DeepSpeed team"),
])
def test_markdown_byline_shapes(markdown_posts, slug, author):
    post = markdown_posts[f"https://pytorch.org/blog/{slug}/"]
    assert post.author == author


@pytest.mark.parametrize(("lines", "expected"), [
    (["By PyTorch Foundation | April 15, 2026 | April 17th, 2026"],
     ("PyTorch Foundation", "2026-04-15", None)),
    (["**By PyTorch Foundation**", "**May 22, 2026**"], ("PyTorch Foundation", "2026-05-22", None)),
    (["- Authors: A team", "- Date: March 19, 2026", "- Source: https://pytorch.org/blog/x/"],
     ("A team", "2026-03-19", "https://pytorch.org/blog/x/")),
    (["By leveraging torch.compile, we made training faster."], (None, None, None)),
    (["Today we announce PyTorch 2.12."], (None, None, None)),
])
def test_read_byline(lines, expected):
    assert read_byline(lines) == expected


def test_markdown_date_from_file_name_and_base_url(tmp_path):
    path = tmp_path / "2026-06-01-my-post.md"
    path.write_text("# My post\n\nNo by-line here.\n", encoding="utf8")
    [post] = read_posts([path], base_url="https://example.org/news/")
    assert (post.url, post.date, post.author) == ("https://example.org/news/my-post/",
                                                  "2026-06-01", None)
    assert post.origin(0) == (str(path), 3)


def test_build_base_url_option_names_the_posts(tmp_path):
    from click.testing import CliRunner

    from ptkg.cli import main
    from ptkg.graph import read_graph

    path = tmp_path / "2026-06-01-my-post.md"
    path.write_text("# My post\n\nWe are excited to announce PyTorch 2.12.\n", encoding="utf8")
    graph = tmp_path / "graph.json"
    result = CliRunner().invoke(main, ["build", str(path), "--graph", str(graph), "--model",
                                       "blank", "--base-url", "https://example.org/news"])
    assert result.exit_code == 0, result.output
    assert "Post:https://example.org/news/my-post/" in read_graph(graph)


def test_markdown_without_body_is_skipped(tmp_path):
    path = tmp_path / "empty.md"
    path.write_text("# Only a title\n\n", encoding="utf8")
    report = SkipReport()
    assert parse_markdown(path.read_text(), str(path), report=report) is None
    assert [str(s) for s in report.skips] == [f"{path}:1: empty post: nothing after the title"]


def test_wordpress_page_gives_the_post(corpus_dir):
    """Issue 11: the page of the 2.2 post on today's site: metadata from the page itself,
    the article as Markdown with its headings and markers, no navigation or footer."""
    [post] = read_posts([corpus_dir / PAGE])
    assert (post.url, post.title, post.date, post.author) == (
        "https://pytorch.org/blog/pytorch2-2/",
        "PyTorch 2.2: FlashAttention-v2 integration, AOTInductor", "2024-01-30",
        "PyTorch Foundation")
    assert "### [Beta] AOTInductor: ahead-of-time compilation" in post.text
    assert "TORCH_LOGS" in post.text and "\\_" not in post.text
    assert "Stay in touch" not in post.text and "View Docs" not in post.text
    assert detect_format(corpus_dir / PAGE) == "html"


def test_page_and_markdown_of_one_post_have_the_same_headings(corpus_dir):
    [page] = read_posts([corpus_dir / PAGE])
    [jekyll] = [p for p in read_posts([corpus_dir / "pytorch_blog.jsonl"])
                if p.url == page.url]

    def headings(text: str) -> list[str]:
        return [" ".join(line.replace("*", "").replace("_", "").split())
                for line in text.splitlines() if line.startswith("#")]

    assert headings(page.text) == headings(jekyll.text)


@pytest.mark.parametrize(("html", "reason"), [
    ("<html><head><title>Page not found – PyTorch</title></head><body><h1>Page not found"
     "</h1><p>Sorry.</p></body></html>", "'not found' page"),
    ("<html><body>" + ("<article><h2>Post</h2><p>" + "words " * 80 + "</p></article>") * 3
     + "</body></html>", "an index page (3 articles)"),
    ("<html><body><nav>Home</nav></body></html>", "no article text"),
])
def test_pages_that_are_not_posts_are_skipped_with_why(tmp_path, html, reason):
    path = tmp_path / "page.html"
    path.write_text(html, encoding="utf8")
    report = SkipReport()
    assert list(read_posts([tmp_path], report)) == []
    assert len(report.skips) == 1 and reason in report.skips[0].reason
    assert report.skips[0].file == str(path)


def test_page_declared_in_the_wrong_encoding_is_read_and_reported(corpus_dir, tmp_path):
    page = (corpus_dir / PAGE).read_bytes().replace(b'<meta charset="UTF-8">',
                                                    b'<meta charset="iso-8859-1">')
    path = tmp_path / "page.html"
    path.write_bytes(page)
    report = SkipReport()
    [post] = read_posts([path], report)
    assert "PyTorch® 2.2" in post.text
    assert [s.reason for s in report.skips] == [
        "encoding declared iso-8859-1, read as UTF-8 (page kept)"]


def test_truncated_page_keeps_what_it_has(corpus_dir):
    data = (corpus_dir / PAGE).read_bytes()
    page = parse_page(data[:70000])
    assert page.url == "https://pytorch.org/blog/pytorch2-2/" and "[Beta]" in page.markdown


def test_saved_page_without_canonical_takes_the_fetch_manifest_url(corpus_dir, tmp_path):
    html = (corpus_dir / PAGE).read_text(encoding="utf8")
    html = html.replace('<link rel="canonical" href="https://pytorch.org/blog/pytorch2-2/" />', "")
    (tmp_path / "pytorch2-2.html").write_text(html, encoding="utf8")
    (tmp_path / ".ptkg-fetch.json").write_text(json.dumps({
        "format": "ptkg-fetch", "version": 1, "source": "x", "pages": {
            "https://pytorch.org/blog/pytorch2-2/": {"file": "pytorch2-2.html"}}}), "utf8")
    [post] = read_posts([tmp_path])
    assert post.url == "https://pytorch.org/blog/pytorch2-2/"


FEED = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>PyTorch</title>
<item><title>PyTorch 2.12 Release Blog</title><link>https://pytorch.org/blog/pytorch-2-12/</link>
<dc:creator>PyTorch Foundation</dc:creator><pubDate>Wed, 13 May 2026 10:00:00 +0000</pubDate>
<description>We are excited...</description>
<content:encoded><![CDATA[<p>We are excited to announce the release of PyTorch 2.12!</p>
<h3>Deprecations</h3><p><strong>TorchScript is now Deprecated</strong></p>
<p>TorchScript was deprecated in 2.10 and is now removed from the docs.</p>]]></content:encoded>
</item>
<item><title>Summary only</title><link>https://pytorch.org/blog/summary/</link>
<description>Just an excerpt.</description></item>
</channel></rss>
"""


def test_feed_items_with_content_are_posts(tmp_path):
    path = tmp_path / "feed.xml"
    path.write_text(FEED, encoding="utf8")
    report = SkipReport()
    [post] = read_posts([path], report)
    assert (post.url, post.title, post.date, post.author) == (
        "https://pytorch.org/blog/pytorch-2-12/", "PyTorch 2.12 Release Blog", "2026-05-13",
        "PyTorch Foundation")
    assert "### Deprecations" in post.text and "**TorchScript is now Deprecated**" in post.text
    assert [s.reason for s in report.skips] == [
        "item 2 (https://pytorch.org/blog/summary/): no full content, only a summary; fetch "
        "its page with `ptkg fetch`"]
    assert detect_format(path) == "feed"


def test_atom_feed(tmp_path):
    path = tmp_path / "atom.xml"
    path.write_text(
        '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>'
        "<entry><title>A post</title><link href='https://pytorch.org/blog/a/'/>"
        "<updated>2026-01-02T00:00:00Z</updated><author><name>Team</name></author>"
        "<content type='html'>&lt;p&gt;PyTorch 2.12 adds torch.accelerator.Graph.&lt;/p&gt;"
        "</content></entry></feed>", encoding="utf8")
    [post] = read_posts([path])
    assert (post.url, post.date, post.author) == ("https://pytorch.org/blog/a/", "2026-01-02",
                                                  "Team")
    assert "torch.accelerator.Graph" in post.text


def test_sitemap_is_skipped_with_how_to_fetch(tmp_path):
    path = tmp_path / "sitemap.xml"
    path.write_text('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/'
                    'sitemap/0.9"><url><loc>https://pytorch.org/blog/a/</loc></url></urlset>',
                    encoding="utf8")
    report = SkipReport()
    assert list(read_posts([path], report)) == []
    assert [str(s) for s in report.skips] == [
        f"{path}: a sitemap lists pages, not posts: fetch them with `ptkg fetch {path} --out "
        "DIR`, then build DIR"]


def test_mixed_folder_reads_each_format(corpus_dir, tmp_path):
    shutil.copy(corpus_dir / PAGE, tmp_path / "page.html")
    shutil.copy(corpus_dir / "2026" / "markdown" / "20260513_pytorch-2-12-release-blog.md",
                tmp_path)
    (tmp_path / "feed.xml").write_text(FEED.replace("pytorch-2-12/", "pytorch-2-12-feed/"),
                                       encoding="utf8")
    urls = sorted(p.url for p in read_posts([tmp_path]))
    assert urls == ["https://pytorch.org/blog/pytorch-2-12-feed/",
                    "https://pytorch.org/blog/pytorch-2-12-release-blog/",
                    "https://pytorch.org/blog/pytorch2-2/"]
