"""The arXiv identifier parser: every spelling, malformed ones kept."""

from __future__ import annotations

import pytest

from agents.scanner.arxiv_ids import find_arxiv_refs, parse_arxiv_id, split_version


@pytest.mark.parametrize(
    ("text", "identifier", "version"),
    [
        ("arXiv:2609.23130", "2609.23130", None),
        ("见 arXiv 2609.23130 一文", "2609.23130", None),
        ("2609.23130v1", "2609.23130", 1),
        ("https://arxiv.org/abs/2609.31415v1", "2609.31415", 1),
        ("https://arxiv.org/html/2609.17863v1", "2609.17863", 1),
        ("https://arxiv.org/pdf/2609.17863v12", "2609.17863", 12),
        ("https://doi.org/10.48550/arXiv.2604.24971", "2604.24971", None),
        ("old hep-th/9901001v2 paper", "hep-th/9901001", 2),
        ("pre-2015 1203.4567", "1203.4567", None),
    ],
)
def test_every_spelling_names_the_same_paper(text: str, identifier: str, version: int | None) -> None:
    refs = find_arxiv_refs(text)
    assert [(r.id, r.version, r.malformed) for r in refs] == [(identifier, version, False)]


def test_truncated_number_is_kept_as_malformed_with_a_reason() -> None:
    refs = find_arxiv_refs("Continnum 2511.0223（VLDB 2026）")
    assert len(refs) == 1
    assert refs[0].malformed and refs[0].id == "2511.0223"
    assert "5 位数字" in (refs[0].reason or "")


@pytest.mark.parametrize("text", ["vLLM v0.30.0", "吞吐 1.7% 提升", "2026.09 月报", "details/1652044", "$12500.00"])
def test_numbers_that_are_not_identifiers_are_ignored(text: str) -> None:
    assert find_arxiv_refs(text) == []


def test_parse_single_identifier_validates_before_any_request() -> None:
    assert not parse_arxiv_id("2609.31415v3").malformed
    assert parse_arxiv_id("2609.31415v3").version == 3
    assert parse_arxiv_id("2511.0223").malformed
    assert parse_arxiv_id("2613.12345").malformed  # month 13
    assert parse_arxiv_id("not an id").malformed
    assert split_version("2609.31415v2") == ("2609.31415", 2)
