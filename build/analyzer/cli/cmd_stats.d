build/analyzer/cli/cmd_stats.o: analyzer/cli/cmd_stats.c \
 analyzer/cli/cli.h include/reclaim_replay/report.h \
 include/reclaim_replay/event.h include/reclaim_replay/model.h \
 include/reclaim_replay/stats.h include/reclaim_replay/error.h
analyzer/cli/cli.h:
include/reclaim_replay/report.h:
include/reclaim_replay/event.h:
include/reclaim_replay/model.h:
include/reclaim_replay/stats.h:
include/reclaim_replay/error.h:
