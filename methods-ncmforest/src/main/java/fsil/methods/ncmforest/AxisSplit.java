package fsil.methods.ncmforest;

/** An axis-aligned split of a conventional random forest: x[feature] &gt; threshold goes right. */
final class AxisSplit implements SplitFunction {
    private final int feature;
    private final float threshold;

    AxisSplit(int feature, float threshold) {
        this.feature = feature;
        this.threshold = threshold;
    }

    @Override
    public boolean goesRight(float[] x, int off) {
        return x[off + feature] > threshold;
    }

    @Override
    public int comparisons() {
        return 1;
    }

    @Override
    public long memoryBytes() {
        return 24;
    }

    int feature() {
        return feature;
    }

    float threshold() {
        return threshold;
    }

    @Override
    public String toString() {
        return "axis[" + feature + " > " + threshold + "]";
    }
}
