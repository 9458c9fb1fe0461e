build/analyzer/model.o: analyzer/model.c include/reclaim_replay/model.h \
 include/reclaim_replay/event.h
include/reclaim_replay/model.h:
include/reclaim_replay/event.h:
