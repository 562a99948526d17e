package fsil.api;

import java.util.logging.Logger;

/**
 * Where a plugin reports progress lines of long preparation work (training a backbone, meta-training a kernel). A
 * plugin that reports progress receives its sink by constructor injection (an {@code @jakarta.inject.Inject}
 * constructor taking a {@code ProgressSink}); the application binds it to the display of the run in progress.
 * A plugin made without an application (by {@link java.util.ServiceLoader}, or with {@code new} in a test) uses
 * {@link #LOGGING}.
 */
@FunctionalInterface
public interface ProgressSink {
    /** The java.util.logging logger that {@link #LOGGING} writes to, at level INFO. */
    String LOGGER = "fsil.progress";

    /** Lines to the java.util.logging logger {@value #LOGGER}; a running run shows them in its progress display. */
    ProgressSink LOGGING = line -> Logger.getLogger(LOGGER).info(line);

    /** Lines nowhere. */
    ProgressSink SILENT = line -> {
    };

    /** One complete line, without a line break. */
    void message(String line);
}
