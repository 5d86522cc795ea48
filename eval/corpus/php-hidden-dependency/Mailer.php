<?php
class WelcomeMailer
{
    public function send(string $email, string $name): bool
    {
        $smtp = new SmtpClient('smtp.internal', 25);
        $templates = new TemplateStore('/var/app/templates');
        $body = $templates->render('welcome', ['name' => $name]);
        return $smtp->send($email, 'Welcome', $body);
    }
}
