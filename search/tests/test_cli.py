import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from search.models import SearchLog

pytestmark = pytest.mark.django_db

RECOMMENDATION_KEYS = {
    "rank", "product_id", "name", "url", "url_status", "relevance_score", "scores", "similarity",
    "feedback_multiplier", "reasoning", "benefits_employee", "benefits_employer", "guidelines",
}


def _run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_it_prints_the_json_contract_for_one_situation():
    data = json.loads(_run("recommend", "Medewerker 10 weken ziek met rugklachten", "--json", "--top-k", "4"))
    assert {"id", "query", "mode", "ranker", "recommendations", "note", "message", "fallback_guidelines", "timings_ms", "search_id"} <= set(data)
    assert data["id"] is None
    assert len(data["recommendations"]) == 4
    for rec in data["recommendations"]:
        assert RECOMMENDATION_KEYS <= set(rec)
        assert set(rec["scores"]) == {"impact", "fit", "guidelines", "feasibility"}
        for citation in rec["guidelines"]:
            assert {"chunk_id", "document_title", "source", "section", "url"} <= set(citation)
    assert {"embed", "stage1", "stage2", "total"} <= set(data["timings_ms"])
    assert SearchLog.objects.filter(id=data["search_id"]).exists()


def test_it_runs_a_queries_file_and_echoes_the_ids(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "a-1", "query": "Burn-out, 3 maanden thuis"}\n{"id": 7, "query": "xq zzv 0931 plok"}\n{"id": "leeg", "query": ""}\n', encoding="utf-8")
    lines = [json.loads(line) for line in _run("recommend", "--queries-file", str(path), "--json", "--mode", "hybrid").splitlines()]
    assert [line["id"] for line in lines] == ["a-1", 7, "leeg"]
    assert lines[0]["mode"] == "hybrid" and lines[0]["recommendations"]
    assert lines[1]["recommendations"] == [] and lines[1]["message"]
    assert "leeg" in lines[2]["error"]


def test_it_prints_readable_cards_without_json():
    text = _run("recommend", "Werknemer met burn-out klachten, 6 maanden verzuim, management functie")
    assert "### 1." in text and "Link:" in text


@pytest.mark.parametrize(("args", "message"), [((), "óf een situatie"), (("x" * 1001,), "te lang"), (("--queries-file", "/bestaat/niet.jsonl"), "niet gevonden")])
def test_it_explains_bad_command_input_in_dutch(args, message):
    with pytest.raises(CommandError, match=message):
        _run("recommend", *args)


def test_it_says_in_its_text_which_misspelt_words_it_searched_as_what():
    assert "Gezocht met verbeterde spelling: zwnager → zwanger" in _run("recommend", "medewerkster is zwnager en werkt nachtdiensten")
    assert "Gezocht met verbeterde spelling: zwnager → zwanger" in _run("ask", "Mag een zwnager medewerkster nachtdiensten draaien?")
    data = json.loads(_run("ask", "Mag een zwnager medewerkster nachtdiensten draaien?", "--json"))
    assert data["spelling"] == {"zwnager": "zwanger"}


def test_it_answers_a_guideline_question_as_json():
    data = json.loads(_run("ask", "Hoe houdt de leidinggevende contact met een werknemer die met burn-out thuis zit?", "--json"))
    assert data["answer"] and len(data["citations"]) >= 2
    assert {"chunk_id", "document_title", "source", "section", "url", "quote"} <= set(data["citations"][0])
    assert "total" in data["timings_ms"]


def test_it_evaluates_every_mode_in_one_run(tmp_path):
    path = tmp_path / "judged.jsonl"
    path.write_text(
        '{"id":"t1","query":"Medewerker is net drie dagen ziek met angstklachten","rel":{"Vroegconsult psycholoog bij minder dan 6 weken verzuim":2,"Psycholoog":1}}\n'
        '{"id":"t2","query":"xq zzv 0931 plok","rel":{},"expect_empty":true}\n',
        encoding="utf-8",
    )
    data = json.loads(_run("evaluate", "--queries", str(path), "--json"))
    assert set(data["modes"]) == {"vector", "hybrid", "two-stage"}
    row = data["modes"]["two-stage"]
    for key in ("ndcg@3", "hit@3", "precision@3", "forbidden_in_top3", "citation_rate", "url_display_rate", "stage1_p95_ms", "total_p50_ms"):
        assert key in row
    assert row["hit@3"] == 1.0
    table = _run("evaluate", "--queries", str(path), "--modes", "two-stage")
    assert "| two-stage |" in table
