package fsil.app.cli;

import fsil.eval.run.Progress;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress of a run on the terminal: tasks done, rate (tasks/s, or s/task below one task a second) and ETA. On a
 * terminal one line is redrawn in place at most five times a second; piped to a file (CI, nohup) it writes plain
 * lines, at most one every 30 s or each tenth of the run. Messages (loading data, preparing a method) appear on
 * their own lines in both cases.
 */
final class ConsoleProgress implements Progress {
    private static final long REDRAW_NANOS = 200_000_000L;
    private static final long LOG_NANOS = 30_000_000_000L;
    private final PrintWriter err;
    private final boolean tty;
    private String name;
    private long total;
    private long done;
    private long start;
    private long lastShown;
    private long lastTenth;
    private long shownDone = -1;
    private boolean drawn;

    ConsoleProgress(PrintWriter err, boolean tty) {
        this.err = err;
        this.tty = tty;
    }

    /** On the terminal when the JVM has one (stdin and stdout attached to it). */
    static ConsoleProgress of(PrintWriter err) {
        return new ConsoleProgress(err, System.console() != null);
    }

    @Override
    public synchronized void start(String protocol, long total) {
        this.name = protocol;
        this.total = total;
        this.done = 0;
        this.start = System.nanoTime();
        this.lastShown = start;
        this.lastTenth = 0;
        show(true);
    }

    @Override
    public synchronized void step(long tasks) {
        done += tasks;
        long now = System.nanoTime();
        long tenth = total == 0 ? 10 : done * 10 / total;
        boolean due = tty ? now - lastShown >= REDRAW_NANOS : now - lastShown >= LOG_NANOS || tenth > lastTenth;
        if (due || done >= total) {
            lastTenth = tenth;
            show(false);
        }
    }

    @Override
    public synchronized void message(String text) {
        if (tty && drawn) {
            err.print("\r\033[K");
        }
        err.println(text);
        if (tty && name != null) {
            show(true);
        }
        err.flush();
    }

    @Override
    public synchronized void close() {
        if (name != null && (tty || shownDone != done)) {
            show(true);
        }
        if (name != null) {
            if (tty) {
                err.println();
            }
            err.flush();
        }
        name = null;
        drawn = false;
    }

    private void show(boolean force) {
        if (name == null || (!tty && force && done > 0 && done < total)) {
            return;
        }
        lastShown = System.nanoTime();
        shownDone = done;
        String line = line(name, done, total, (lastShown - start) * 1e-9);
        if (tty) {
            err.print("\r\033[K" + line);
            drawn = true;
        } else {
            err.println(line);
        }
        err.flush();
    }

    /** e.g. {@code fewshot 1200/4200 tasks (28%) 35.2 tasks/s, ETA 1m25s}. */
    static String line(String name, long done, long total, double seconds) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s %d/%d tasks (%d%%)", name, done, total,
                total == 0 ? 100 : done * 100 / total));
        if (done > 0 && seconds > 0) {
            double rate = done / seconds;
            sb.append(rate >= 1 ? String.format(Locale.ROOT, " %.1f tasks/s", rate)
                    : String.format(Locale.ROOT, " %.1f s/task", 1 / rate));
            if (done < total) {
                sb.append(", ETA ").append(duration((total - done) / rate));
            } else {
                sb.append(", took ").append(duration(seconds));
            }
        }
        return sb.toString();
    }

    static String duration(double s) {
        return fsil.core.progress.TrainingLog.duration(s);
    }
}
