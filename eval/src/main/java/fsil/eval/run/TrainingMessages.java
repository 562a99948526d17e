package fsil.eval.run;

import fsil.core.progress.TrainingLog;

import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * While a run is running, the progress lines of long preparation work ({@link TrainingLog}: backbone training,
 * meta-training) go to the run's {@link Progress} (the command line's display, a notebook's log) instead of
 * java.util.logging's default standard-error format.
 */
final class TrainingMessages implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(fsil.api.ProgressSink.LOGGER);
    private final Forward handler;
    private final boolean parentHandlers;

    private TrainingMessages(Forward handler, boolean parentHandlers) {
        this.handler = handler;
        this.parentHandlers = parentHandlers;
    }

    private static final class Forward extends Handler {
        final Progress progress;

        Forward(Progress progress) {
            this.progress = progress;
        }

        @Override
        public void publish(LogRecord r) {
            progress.message(r.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    /** Forwards to {@code progress} until closed; nothing new when it already receives them (a nested run). */
    static synchronized TrainingMessages to(Progress progress) {
        for (Handler h : LOG.getHandlers()) {
            if (h instanceof Forward f && f.progress == progress) {
                return new TrainingMessages(null, LOG.getUseParentHandlers());
            }
        }
        Forward f = new Forward(progress);
        boolean parents = LOG.getUseParentHandlers();
        LOG.addHandler(f);
        LOG.setUseParentHandlers(false);
        return new TrainingMessages(f, parents);
    }

    @Override
    public void close() {
        synchronized (TrainingMessages.class) {
            if (handler != null) {
                LOG.removeHandler(handler);
                LOG.setUseParentHandlers(parentHandlers);
            }
        }
    }
}
