/* The gNB binaries' signals (gnb-svc, gnb-switch): SIGINT and SIGTERM stop the loop (the counters are then
 * printed), SIGUSR1 asks for the counters while it runs. One binary's main file includes this. */
#ifndef GNB_SIGNALS_H
#define GNB_SIGNALS_H

#include <signal.h>

static volatile sig_atomic_t g_stop, g_dump;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		g_dump = 1;
	else
		g_stop = 1;
}

static inline void signals_install(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_signal);
}

#endif
