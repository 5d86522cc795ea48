import java.io.IOException;
import java.util.regex.Pattern;

public class Backup {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private final String backupRoot;

    public Backup(String backupRoot) {
        this.backupRoot = backupRoot;
    }

    public int archive(String projectName) throws IOException, InterruptedException {
        if (!NAME.matcher(projectName).matches()) {
            throw new IllegalArgumentException("invalid project name");
        }
        ProcessBuilder pb = new ProcessBuilder("tar", "czf", backupRoot + "/" + projectName + ".tgz", "/srv/projects/" + projectName);
        return pb.start().waitFor();
    }
}
