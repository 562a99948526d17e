package fsil.data.io;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;

import java.util.List;

/**
 * Features and labels read from one file, with the class names the file defines (empty when the labels were
 * plain integers).
 *
 * @param source     the file the data came from
 * @param features   n x d features (finite)
 * @param labels     class id per row
 * @param classNames names by class id when the file gives them (nominal ARFF classes, string CSV labels)
 */
public record LabeledTable(String source, FeatureMatrix features, int[] labels, List<String> classNames) {

    public LabeledTable {
        if (features.rows() != labels.length) {
            throw new InvalidDataException(source + ": " + features.rows() + " feature rows but " + labels.length
                    + " labels");
        }
        classNames = List.copyOf(classNames);
    }

    public LabeledData data() {
        return new LabeledData(features, labels);
    }

    /** The class table: the file's names, or numbered classes 0..max label. */
    public ClassTable classes() {
        if (!classNames.isEmpty()) {
            return new ClassTable(classNames, List.of());
        }
        int max = -1;
        for (int y : labels) {
            max = Math.max(max, y);
        }
        return ClassTable.numbered(max + 1);
    }
}
