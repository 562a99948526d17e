package fsil.data.fuzz;

/** Time budget of one reader's fuzzing run (CI runs the six readers one after the other: see .ci/run). */
final class FuzzBudget {
    /** Per reader; longer runs: data/DATA.md. */
    static final String PER_READER = "6s";

    private FuzzBudget() {
    }
}
