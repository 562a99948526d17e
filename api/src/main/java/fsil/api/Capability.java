package fsil.api;

/**
 * The kinds of task in fsil: what a method supports ({@link Method#capabilities()}) and what a task asks of the
 * method that solves it ({@link Task#capability()}, {@link SessionContext#task()}). Protocols check a method's
 * capabilities before any work starts.
 */
public enum Capability {
    /** Few-shot episodes where each query is classified on its own (predictions are row-independent). */
    INDUCTIVE_FEWSHOT,
    /** Few-shot episodes where the whole query set may be used jointly. */
    TRANSDUCTIVE_FEWSHOT,
    /** A stream of experiences adding new classes with plenty of data; evaluation on all classes seen. */
    CLASS_INCREMENTAL,
    /** A base experience with many samples, then few-shot sessions of new classes (Tao et al.). */
    FEWSHOT_CLASS_INCREMENTAL;

    /** Whether a task of this kind is a few-shot episode (one learn, then predictions for its queries). */
    public boolean episodic() {
        return this == INDUCTIVE_FEWSHOT || this == TRANSDUCTIVE_FEWSHOT;
    }
}
