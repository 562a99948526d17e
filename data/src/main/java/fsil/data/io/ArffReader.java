package fsil.data.io;

import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads Weka ARFF files (optionally gzipped) with numeric attributes and one nominal class attribute: the
 * attribute named {@code class} if there is one, otherwise the last nominal attribute. Numeric attributes are
 * {@code numeric}, {@code real} or {@code integer}; other nominal attributes, strings, dates, relational
 * attributes, missing values ({@code ?}) and the sparse data format are rejected with a message naming the file
 * and line. Class ids follow the order of the nominal values in the header.
 */
public final class ArffReader {

    private ArffReader() {
    }

    public static LabeledTable read(Path file) {
        try (InputStream in = InputFiles.open(file)) {
            return read(file.toString(), in);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private record Attribute(String name, List<String> nominal) {
    }

    public static LabeledTable read(String source, InputStream stream) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8), 1 << 16);
        List<Attribute> attrs = new ArrayList<>();
        String line;
        int lineNo = 0;
        boolean inData = false;
        int classAttr = -1;
        Map<String, Integer> classIds = new HashMap<>();
        CsvReader.FloatBuffer values = new CsvReader.FloatBuffer();
        List<Integer> labels = new ArrayList<>();
        boolean sawRelation = false;
        while ((line = r.readLine()) != null) {
            lineNo++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("%")) {
                continue;
            }
            if (!inData) {
                String lower = t.toLowerCase(Locale.ROOT);
                if (lower.startsWith("@relation")) {
                    sawRelation = true;
                } else if (lower.startsWith("@attribute")) {
                    attrs.add(parseAttribute(t.substring("@attribute".length()).strip(), source, lineNo));
                } else if (lower.startsWith("@data")) {
                    inData = true;
                    classAttr = classAttribute(attrs, source);
                    List<String> names = attrs.get(classAttr).nominal();
                    for (int k = 0; k < names.size(); k++) {
                        classIds.put(names.get(k), k);
                    }
                    for (int a = 0; a < attrs.size(); a++) {
                        if (a != classAttr && attrs.get(a).nominal() != null) {
                            throw new InvalidDataException(source + ": attribute '" + attrs.get(a).name()
                                    + "' is nominal; only numeric features and one nominal class are supported");
                        }
                    }
                } else {
                    throw new InvalidDataException(source + ": line " + lineNo + ": expected @relation, @attribute"
                            + " or @data, got '" + abbreviate(t) + "'" + (sawRelation ? "" : " (not an ARFF file?)"));
                }
                continue;
            }
            if (t.startsWith("{")) {
                throw new InvalidDataException(source + ": line " + lineNo + ": sparse ARFF rows are not supported");
            }
            String[] fields = CsvReader.split(t, ',');
            if (fields.length != attrs.size()) {
                throw new InvalidDataException(source + ": line " + lineNo + " has " + fields.length
                        + " values but the header declares " + attrs.size() + " attributes");
            }
            for (int a = 0; a < fields.length; a++) {
                String f = unquote(fields[a].strip());
                if (f.equals("?")) {
                    throw new InvalidDataException(source + ": line " + lineNo + ", attribute '" + attrs.get(a).name()
                            + "': missing values (?) are not supported; impute or drop the row");
                }
                if (a == classAttr) {
                    Integer id = classIds.get(f);
                    if (id == null) {
                        throw new InvalidDataException(source + ": line " + lineNo + ": class '" + f + "' is not one"
                                + " of the declared values " + attrs.get(a).nominal());
                    }
                    labels.add(id);
                    continue;
                }
                float v;
                try {
                    v = Float.parseFloat(f);
                } catch (NumberFormatException e) {
                    throw new InvalidDataException(source + ": line " + lineNo + ", attribute '" + attrs.get(a).name()
                            + "': '" + f + "' is not a number");
                }
                if (!Float.isFinite(v)) {
                    throw new InvalidDataException(source + ": line " + lineNo + ", attribute '" + attrs.get(a).name()
                            + "': value " + f + " is not finite; features must not contain NaN or Inf");
                }
                values.add(v);
            }
        }
        if (!inData) {
            throw new InvalidDataException(source + ": no @data section (truncated or not an ARFF file)");
        }
        if (labels.isEmpty()) {
            throw new InvalidDataException(source + ": the @data section has no rows");
        }
        int n = labels.size();
        int[] y = labels.stream().mapToInt(Integer::intValue).toArray();
        return new LabeledTable(source, FeatureMatrix.wrap(n, attrs.size() - 1, values.toArray()), y,
                attrs.get(classAttr).nominal());
    }

    private static int classAttribute(List<Attribute> attrs, String source) {
        int found = -1;
        for (int a = 0; a < attrs.size(); a++) {
            if (attrs.get(a).nominal() != null) {
                if (attrs.get(a).name().equalsIgnoreCase("class")) {
                    return a;
                }
                found = a;
            }
        }
        if (found < 0) {
            throw new InvalidDataException(source + ": no nominal class attribute (e.g. @attribute class {a,b,c})");
        }
        if (attrs.size() < 2) {
            throw new InvalidDataException(source + ": no numeric feature attributes");
        }
        return found;
    }

    private static Attribute parseAttribute(String rest, String source, int lineNo) {
        String name;
        String type;
        if (rest.startsWith("'") || rest.startsWith("\"")) {
            int end = rest.indexOf(rest.charAt(0), 1);
            if (end < 0) {
                throw new InvalidDataException(source + ": line " + lineNo + ": unterminated attribute name");
            }
            name = rest.substring(1, end);
            type = rest.substring(end + 1).strip();
        } else {
            String[] p = rest.split("\\s+", 2);
            if (p.length < 2) {
                throw new InvalidDataException(source + ": line " + lineNo + ": attribute '" + rest + "' has no type");
            }
            name = p[0];
            type = p[1].strip();
        }
        if (type.startsWith("{")) {
            if (!type.endsWith("}")) {
                throw new InvalidDataException(source + ": line " + lineNo + ": unterminated nominal value list");
            }
            List<String> vals = new ArrayList<>();
            for (String v : CsvReader.split(type.substring(1, type.length() - 1), ',')) {
                vals.add(unquote(v.strip()));
            }
            return new Attribute(name, vals);
        }
        String lt = type.toLowerCase(Locale.ROOT);
        if (lt.equals("numeric") || lt.equals("real") || lt.equals("integer")) {
            return new Attribute(name, null);
        }
        throw new InvalidDataException(source + ": line " + lineNo + ": attribute '" + name + "' has type '" + type
                + "'; only numeric/real/integer features and a nominal class are supported");
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && (s.charAt(0) == '\'' && s.endsWith("'"))) {
            return s.substring(1, s.length() - 1);
        }
        return s;
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }
}
