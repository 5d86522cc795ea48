<?php
function render_comments(array $comments): string
{
    $html = '<ul class="comments">';
    foreach ($comments as $c) {
        $author = htmlspecialchars($c['author'], ENT_QUOTES, 'UTF-8');
        $body = htmlspecialchars($c['body'], ENT_QUOTES, 'UTF-8');
        $html .= '<li><b>' . $author . '</b>: ' . $body . '</li>';
    }
    return $html . '</ul>';
}

$db = new PDO('sqlite:blog.db');
$stmt = $db->prepare('SELECT author, body FROM comments WHERE post_id = ?');
$stmt->execute([(int) ($_GET['post'] ?? 0)]);
echo render_comments($stmt->fetchAll(PDO::FETCH_ASSOC));
