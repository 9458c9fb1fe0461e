build/analyzer/stats.o: analyzer/stats.c include/reclaim_replay/stats.h \
 include/reclaim_replay/model.h include/reclaim_replay/event.h
include/reclaim_replay/stats.h:
include/reclaim_replay/model.h:
include/reclaim_replay/event.h:
