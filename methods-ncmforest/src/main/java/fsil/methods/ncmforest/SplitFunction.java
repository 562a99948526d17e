package fsil.methods.ncmforest;

/** A trained binary split f^n: sends a sample left or right. Implementations are immutable. */
interface SplitFunction {

    /** Whether the row of {@code x} starting at {@code off} goes to the right child. */
    boolean goesRight(float[] x, int off);

    /**
     * The paper's test-cost unit for one evaluation: centroid comparisons ||x - c||^2 for NCM splits, one feature
     * comparison for axis-aligned splits.
     */
    int comparisons();

    /** Approximate bytes of the split's parameters. */
    long memoryBytes();
}
