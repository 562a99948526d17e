package fsil.api;

/**
 * One step of an incremental stream: the training data of the classes introduced at this step.
 *
 * @param index      position in the stream, from 0
 * @param newClasses class ids introduced at this step, sorted
 * @param train      their training data
 */
public record Experience(int index, int[] newClasses, LabeledData train) {
}
