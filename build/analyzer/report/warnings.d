build/analyzer/report/warnings.o: analyzer/report/warnings.c \
 include/reclaim_replay/report.h include/reclaim_replay/event.h \
 include/reclaim_replay/model.h include/reclaim_replay/stats.h
include/reclaim_replay/report.h:
include/reclaim_replay/event.h:
include/reclaim_replay/model.h:
include/reclaim_replay/stats.h:
