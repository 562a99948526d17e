package fsil.app.cli;

import fsil.eval.run.Progress;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintWriter;

/** Progress bar on the terminal (units done, rate, ETA) with me.tongfei:progressbar. */
final class ConsoleProgress implements Progress {
    private final PrintWriter err;
    private ProgressBar bar;

    ConsoleProgress(PrintWriter err) {
        this.err = err;
    }

    @Override
    public synchronized void start(String task, long total) {
        close();
        bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(500).showSpeed().setUnit(" units", 1).continuousUpdate().build();
    }

    @Override
    public void step() {
        ProgressBar b = bar;
        if (b != null) {
            b.step();
        }
    }

    @Override
    public synchronized void message(String text) {
        if (bar == null) {
            err.println(text);
            err.flush();
        }
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
