# EVI Interventiewijzer: `make run` starts everything, `make test` runs the whole suite.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export DEBUG ?= true

.PHONY: run test setup bench evaluate clean-data

$(VENV)/.installed: requirements.txt constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -c constraints.txt
	touch $@

setup: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo --if-empty
	$(PY) manage.py create_demo_users
	$(PY) manage.py reindex_embeddings --background
	$(PY) manage.py calibrate_acceptance --background
	$(PY) manage.py collectstatic --noinput --verbosity 0

run: setup
	@echo ""
	@echo "EVI Interventiewijzer draait op http://127.0.0.1:$(PORT)/  (stoppen met Ctrl+C)"
	@echo ""
	@trap 'kill 0' INT TERM EXIT; \
	$(VENV)/bin/celery -A evi_site worker -B --loglevel=info --concurrency=2 \
		--schedule=$${EVI_DATA_DIR:-.data}/celerybeat-schedule & \
	EMBEDDING_THREADS=$${EMBEDDING_THREADS:-1} $(VENV)/bin/gunicorn evi_site.wsgi -c python:evi_site.gunicorn_conf \
		--bind 127.0.0.1:$(PORT) --access-logfile - --preload

test: $(VENV)/.installed
	$(PY) -m pytest

evaluate: $(VENV)/.installed
	$(PY) manage.py evaluate --modes vector,hybrid,two-stage,two-stage+multi $(foreach f,judged_situations judged_situations_extra judged_situations_fresh judged_situations_fresh2 judged_situations_fresh3 judged_situations_fresh4 judged_situations_fresh5 judged_situations_fresh6 judged_situations_fresh7 judged_situations_fresh8 judged_situations_fresh9 judged_situations_fresh10 judged_situations_fresh11 judged_situations_fresh12 judged_situations_fresh13 judged_situations_fresh14 judged_situations_fresh15 judged_situations_fresh16 judged_situations_fresh17 judged_situations_fresh18 judged_situations_fresh19 judged_situations_fresh20 judged_situations_fresh21 judged_situations_fresh22 judged_situations_fresh23 judged_situations_fresh24 judged_situations_fresh25 judged_situations_fresh26 judged_situations_fresh27 judged_situations_fresh28 judged_situations_fresh29 judged_situations_fresh30 judged_situations_fresh31 judged_situations_fresh32 judged_situations_fresh33 judged_situations_fresh34 judged_situations_fresh35 judged_situations_fresh36 judged_situations_fresh37 judged_situations_fresh38 judged_situations_fresh39 judged_situations_fresh40 judged_situations_fresh41 judged_situations_fresh42 judged_situations_fresh43 judged_situations_fresh44 judged_situations_fresh45 judged_situations_fresh46 judged_situations_fresh47 judged_situations_fresh48 judged_situations_fresh49 judged_situations_fresh50 judged_situations_fresh51 judged_situations_fresh52 judged_situations_fresh53 judged_situations_fresh54 judged_situations_fresh55 judged_situations_fresh56 judged_situations_fresh57 judged_situations_fresh58 judged_situations_fresh59 judged_situations_fresh60 judged_situations_fresh61 judged_situations_fresh62 judged_situations_fresh63 judged_situations_fresh64 judged_situations_short2 judged_situations_boundary judged_situations_boundary2 judged_situations_boundary3 short_phrasings out_of_domain,--queries search/eval/$(f).jsonl) \
		--questions search/eval/guideline_questions.jsonl --questions search/eval/guideline_questions_ga.jsonl --questions search/eval/guideline_questions_gb.jsonl --questions search/eval/guideline_questions_gc.jsonl --questions search/eval/guideline_questions_gd.jsonl --questions search/eval/guideline_questions_ge.jsonl --questions search/eval/guideline_questions_gf.jsonl --questions search/eval/unanswerable_questions.jsonl --questions search/eval/out_of_domain.jsonl --questions search/eval/law_questions_heldout2.jsonl --questions search/eval/law_questions_heldout3.jsonl --questions search/eval/law_questions_heldout4.jsonl --questions search/eval/law_questions_heldout5.jsonl --questions search/eval/law_questions_heldout6.jsonl --questions search/eval/law_questions_heldout7.jsonl --questions search/eval/law_questions_heldout8.jsonl --questions search/eval/law_questions_heldout9.jsonl --questions search/eval/law_questions_heldout10.jsonl --questions search/eval/law_questions_heldout11.jsonl --questions search/eval/law_questions_heldout12.jsonl --questions search/eval/law_questions_heldout13.jsonl --questions search/eval/law_questions_heldout14.jsonl --questions search/eval/law_questions_heldout15.jsonl --questions search/eval/law_questions_heldout16.jsonl --questions search/eval/law_questions_heldout17.jsonl --questions search/eval/law_questions_heldout18.jsonl --questions search/eval/law_questions_heldout19.jsonl --questions search/eval/law_questions_heldout20.jsonl --questions search/eval/law_questions_heldout21.jsonl --questions search/eval/law_questions_heldout22.jsonl --questions search/eval/law_questions_heldout23.jsonl --questions search/eval/law_questions_heldout24.jsonl --questions search/eval/law_questions_heldout25.jsonl --questions search/eval/law_questions_heldout26.jsonl --questions search/eval/law_questions_heldout27.jsonl --questions search/eval/law_questions_heldout28.jsonl --questions search/eval/law_questions_heldout29.jsonl --questions search/eval/law_questions_heldout30.jsonl --questions search/eval/law_questions_heldout31.jsonl --questions search/eval/law_questions_heldout32.jsonl --questions search/eval/law_questions_heldout33.jsonl --questions search/eval/law_questions_heldout34.jsonl --questions search/eval/law_questions_heldout35.jsonl --questions search/eval/law_questions_heldout36.jsonl --questions search/eval/law_questions_heldout37.jsonl --questions search/eval/law_questions_heldout38.jsonl --questions search/eval/law_questions_heldout39.jsonl --questions search/eval/law_questions_heldout40.jsonl --questions search/eval/law_questions_heldout41.jsonl --questions search/eval/law_questions_heldout42.jsonl --questions search/eval/law_questions_heldout43.jsonl --questions search/eval/law_questions_heldout44.jsonl --questions search/eval/law_questions_heldout45.jsonl --questions search/eval/law_questions_heldout46.jsonl --questions search/eval/law_questions_heldout47.jsonl --questions search/eval/law_questions_heldout48.jsonl --questions search/eval/law_questions_short.jsonl --questions search/eval/unanswerable_questions2.jsonl --questions search/eval/unanswerable_questions3.jsonl

bench: $(VENV)/.installed
	$(PY) manage.py benchmark_search
