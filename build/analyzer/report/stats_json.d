build/analyzer/report/stats_json.o: analyzer/report/stats_json.c \
 include/reclaim_replay/report.h include/reclaim_replay/event.h \
 include/reclaim_replay/model.h include/reclaim_replay/stats.h
include/reclaim_replay/report.h:
include/reclaim_replay/event.h:
include/reclaim_replay/model.h:
include/reclaim_replay/stats.h:
