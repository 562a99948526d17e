package fsil.eval.protocol;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;

/**
 * The samples of each class in train and test together, without copying the features: a row code c &gt;= 0 is
 * train row c, a code c &lt; 0 is test row -c-1.
 */
final class PooledRows {
    private final LabeledData train;
    private final LabeledData test;
    private final ClassIndex trainIndex;
    private final ClassIndex testIndex;

    PooledRows(LabeledData train, LabeledData test) {
        this.train = train;
        this.test = test;
        this.trainIndex = new ClassIndex(train);
        this.testIndex = new ClassIndex(test);
    }

    int count(int classId) {
        return trainIndex.count(classId) + testIndex.count(classId);
    }

    /** Row codes of a class: its train rows, then its test rows. */
    int[] codes(int classId) {
        int[] a = trainIndex.rows(classId);
        int[] b = testIndex.rows(classId);
        int[] out = new int[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        for (int i = 0; i < b.length; i++) {
            out[a.length + i] = -b[i] - 1;
        }
        return out;
    }

    int label(int code) {
        return code >= 0 ? train.labels()[code] : test.labels()[-code - 1];
    }

    /** Gathers the rows with these codes. */
    LabeledData gather(int[] codes) {
        int d = train.dimension();
        float[] x = new float[codes.length * d];
        int[] y = new int[codes.length];
        float[] tr = train.features().rawData();
        float[] te = test.features().rawData();
        for (int i = 0; i < codes.length; i++) {
            int c = codes[i];
            if (c >= 0) {
                System.arraycopy(tr, c * d, x, i * d, d);
                y[i] = train.labels()[c];
            } else {
                System.arraycopy(te, (-c - 1) * d, x, i * d, d);
                y[i] = test.labels()[-c - 1];
            }
        }
        return new LabeledData(FeatureMatrix.wrap(codes.length, d, x), y);
    }
}
