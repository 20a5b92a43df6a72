# gbhistory: the results store behind tools/history (store, run files, gate against history, trend, dashboard).
# tools/history is its command line; tests/tools/test_history*.py test it through both stores.
