package fsil.eval.run;

/** Progress of a run (tasks done, rate, ETA); the CLI shows a progress bar, tests stay silent. */
public interface Progress extends AutoCloseable {

    Progress SILENT = new Progress() {
        @Override
        public void start(String task, long total) {
        }

        @Override
        public void step(long tasks) {
        }

        @Override
        public void message(String text) {
        }

        @Override
        public void close() {
        }
    };

    /** The run starts {@code total} tasks (episodes, runs) of a protocol. */
    void start(String protocol, long total);

    /** {@code tasks} more tasks are done. */
    void step(long tasks);

    /** A line of information (loading data, preparing a method). */
    void message(String text);

    @Override
    void close();
}
