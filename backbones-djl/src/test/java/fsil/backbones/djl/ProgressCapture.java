package fsil.backbones.djl;

import fsil.core.progress.TrainingLog;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects the progress lines ({@link TrainingLog}) emitted while it is open. */
final class ProgressCapture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger(fsil.api.ProgressSink.LOGGER);
    final List<String> lines = new ArrayList<>();

    ProgressCapture() {
        logger.addHandler(this);
    }

    @Override
    public synchronized void publish(LogRecord r) {
        lines.add(r.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }

    synchronized boolean any(String prefix) {
        return lines.stream().anyMatch(l -> l.startsWith(prefix));
    }
}
