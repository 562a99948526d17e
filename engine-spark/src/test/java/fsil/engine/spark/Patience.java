package fsil.engine.spark;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;

/**
 * Time limits for tests that start JVMs and wait for a run on a shared machine: a wait ends on its event (a log
 * line, a stored unit, the run's end), and fails only when nothing has happened for a stall limit that grows with
 * the machine's load (base x max(1, load average / cores), read at every check), or at a hard limit that holds
 * whatever the load.
 */
final class Patience {
    private final long start = System.nanoTime();
    private final Duration hard;

    Patience(Duration hard) {
        this.hard = hard;
    }

    /** max(1, 1-minute load average / available cores); 1 where the load average is unknown. */
    static double loadFactor() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        int cores = Runtime.getRuntime().availableProcessors();
        return load < 0 ? 1 : Math.max(1, load / cores);
    }

    /** {@code base} scaled by the load now, at most {@code cap}. */
    static Duration scaled(Duration base, Duration cap) {
        long nanos = (long) Math.min(cap.toNanos(), base.toNanos() * loadFactor());
        return Duration.ofNanos(nanos);
    }

    /** How long a wait may go without progress now: {@code base} scaled by the load, within the hard limit. */
    Duration stall(Duration base) {
        return scaled(base, hard);
    }

    boolean expired() {
        return System.nanoTime() - start > hard.toNanos();
    }

    Duration hard() {
        return hard;
    }

    /** "load average 5.1 on 2 cores, 3m12s since the start (hard limit 15m)", for failure messages. */
    String describe() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        long s = (System.nanoTime() - start) / 1_000_000_000L;
        return String.format(Locale.ROOT, "load average %.1f on %d cores, %dm%02ds since the start (hard limit %dm)",
                load, Runtime.getRuntime().availableProcessors(), s / 60, s % 60, hard.toMinutes());
    }
}
