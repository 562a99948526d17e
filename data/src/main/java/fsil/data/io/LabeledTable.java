package fsil.data.io;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;

import java.util.List;

/**
 * Features and labels read from one file, with the class names: the file's labels as text (sorted as
 * {@code np.unique} sorts them, see {@link LabelEncoder}) or the nominal values an ARFF file declares.
 *
 * @param source     the file the data came from
 * @param features   n x d features (finite; n, d >= 1)
 * @param labels     class id per row, 0..K-1
 * @param classNames name of each class id (K names)
 */
public record LabeledTable(String source, FeatureMatrix features, int[] labels, List<String> classNames) {

    public LabeledTable {
        if (features.rows() != labels.length) {
            throw new InvalidDataException(source + ": " + features.rows() + " feature rows but " + labels.length
                    + " labels");
        }
        if (features.rows() == 0) {
            throw new InvalidDataException(source + ": no samples");
        }
        if (features.cols() == 0) {
            throw new InvalidDataException(source + ": features of shape (" + features.rows() + ", 0) have no"
                    + " feature columns");
        }
        classNames = List.copyOf(classNames);
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= classNames.size()) {
                throw new IllegalArgumentException(source + ": class id " + labels[i] + " at row " + i
                        + " has no class name (" + classNames.size() + " classes)");
            }
        }
    }

    /** Features with the labels of an encoding of the file's raw labels. */
    public static LabeledTable of(String source, FeatureMatrix features, RawLabels labels) {
        if (features.rows() != labels.size()) {
            throw new InvalidDataException(source + ": " + features.rows() + " feature rows but " + labels.size()
                    + " labels (" + labels.source() + "); every row needs exactly one label");
        }
        LabelEncoder.Encoding e = LabelEncoder.encode(labels);
        return new LabeledTable(source, features, e.ids(0), e.names());
    }

    public LabeledData data() {
        return new LabeledData(features, labels);
    }

    /** The class table: one name per class id. */
    public ClassTable classes() {
        return new ClassTable(classNames, List.of());
    }
}
