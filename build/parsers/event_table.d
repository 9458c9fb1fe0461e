build/parsers/event_table.o: parsers/event_table.c parsers/event_table.h \
 include/reclaim_replay/event.h
parsers/event_table.h:
include/reclaim_replay/event.h:
