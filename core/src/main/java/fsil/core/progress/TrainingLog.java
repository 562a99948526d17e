package fsil.core.progress;

import fsil.api.ProgressSink;

import java.util.Locale;

/**
 * Progress lines of long preparation work (backbone training, meta-training): "what: 300/1000 episodes, loss
 * 1.234, 2m10s left", the first step reported at once, then at most one every {@link #INTERVAL_NANOS} and one at
 * the end, to the plugin's {@link ProgressSink}. Called from the training loop itself, so it needs no thread of its
 * own.
 */
public final class TrainingLog {
    static final long INTERVAL_NANOS = 5_000_000_000L;

    private final ProgressSink sink;
    private final String what;
    private final String unit;
    private final long total;
    private final long start = System.nanoTime();
    private long last = start - INTERVAL_NANOS;

    /**
     * @param sink  where the lines go
     * @param what  e.g. "lsgp meta-training on digits"
     * @param unit  what is counted, e.g. "episodes", "epochs"
     * @param total how many there are
     */
    public TrainingLog(ProgressSink sink, String what, String unit, long total) {
        this.sink = sink;
        this.what = what;
        this.unit = unit;
        this.total = total;
    }

    /** Reports {@code done} of the total with a detail such as "loss 1.234" (null for none), when due. */
    public void step(long done, String detail) {
        long now = System.nanoTime();
        if (done < total && now - last < INTERVAL_NANOS) {
            return;
        }
        last = now;
        double elapsed = (now - start) / 1e9;
        String eta = done >= total ? "took " + duration(elapsed)
                : done == 0 ? "" : duration(elapsed / done * (total - done)) + " left";
        sink.message(String.format(Locale.ROOT, "%s: %d/%d %s%s%s", what, done, total, unit,
                detail == null ? "" : ", " + detail, eta.isEmpty() ? "" : ", " + eta));
    }

    /** A duration as 45s, 2m05s or 1h03m. */
    public static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m" + String.format(Locale.ROOT, "%02d", s % 60) + "s";
        }
        return (s / 3600) + "h" + String.format(Locale.ROOT, "%02d", (s % 3600) / 60) + "m";
    }
}
