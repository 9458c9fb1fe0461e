build/analyzer/cli/inputs.o: analyzer/cli/inputs.c analyzer/cli/cli.h \
 include/reclaim_replay/report.h include/reclaim_replay/event.h \
 include/reclaim_replay/model.h include/reclaim_replay/stats.h \
 include/reclaim_replay/error.h include/reclaim_replay/trace.h
analyzer/cli/cli.h:
include/reclaim_replay/report.h:
include/reclaim_replay/event.h:
include/reclaim_replay/model.h:
include/reclaim_replay/stats.h:
include/reclaim_replay/error.h:
include/reclaim_replay/trace.h:
