package fsil.eval.run;

import fsil.data.FeatureSet;

/** Lets tests in other packages build the toy runner of {@link RunnerTest}. */
public final class RunnerTestAccess {
    private RunnerTestAccess() {
    }

    public static Runner runner(FeatureSet fs) {
        return RunnerTest.runner(fs);
    }
}
