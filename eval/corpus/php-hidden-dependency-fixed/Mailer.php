<?php
class WelcomeMailer
{
    public function __construct(
        private MailTransport $transport,
        private TemplateRenderer $templates,
    ) {
    }

    public function send(string $email, string $name): bool
    {
        $body = $this->templates->render('welcome', ['name' => $name]);
        return $this->transport->send($email, 'Welcome', $body);
    }
}
