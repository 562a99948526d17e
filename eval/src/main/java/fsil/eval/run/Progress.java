package fsil.eval.run;

/** Progress of a run (units done, rate, ETA); the CLI shows a progress bar, tests stay silent. */
public interface Progress extends AutoCloseable {

    Progress SILENT = new Progress() {
        @Override
        public void start(String task, long total) {
        }

        @Override
        public void step() {
        }

        @Override
        public void message(String text) {
        }

        @Override
        public void close() {
        }
    };

    void start(String task, long total);

    void step();

    /** A line of information (loading data, preparing a method). */
    void message(String text);

    @Override
    void close();
}
