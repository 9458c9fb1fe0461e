build/analyzer/report/text_util.o: analyzer/report/text_util.c \
 analyzer/report/text_util.h include/reclaim_replay/report.h \
 include/reclaim_replay/event.h include/reclaim_replay/model.h \
 include/reclaim_replay/stats.h
analyzer/report/text_util.h:
include/reclaim_replay/report.h:
include/reclaim_replay/event.h:
include/reclaim_replay/model.h:
include/reclaim_replay/stats.h:
