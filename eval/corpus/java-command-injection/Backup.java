import java.io.IOException;

public class Backup {
    private final String backupRoot;

    public Backup(String backupRoot) {
        this.backupRoot = backupRoot;
    }

    public int archive(String projectName) throws IOException, InterruptedException {
        String cmd = "tar czf " + backupRoot + "/" + projectName + ".tgz /srv/projects/" + projectName;
        Process p = Runtime.getRuntime().exec(new String[] {"sh", "-c", cmd});
        return p.waitFor();
    }
}
