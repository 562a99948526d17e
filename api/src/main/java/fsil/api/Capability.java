package fsil.api;

/** The kinds of task a method can take part in; protocols check these before any work starts. */
public enum Capability {
    /** Few-shot episodes where each query is classified on its own (predictions are row-independent). */
    INDUCTIVE_FEWSHOT,
    /** Few-shot episodes where the whole query set may be used jointly. */
    TRANSDUCTIVE_FEWSHOT,
    /** A stream of experiences adding new classes with plenty of data; evaluation on all classes seen. */
    CLASS_INCREMENTAL,
    /** A base experience with many samples, then few-shot sessions of new classes (Tao et al.). */
    FEWSHOT_CLASS_INCREMENTAL
}
